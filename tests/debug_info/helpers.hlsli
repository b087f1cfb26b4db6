float sq(float x)
{
    return x * x;
}
