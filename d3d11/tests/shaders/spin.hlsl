// A wait on a flag that no thread sets: the dispatch never ends by itself
// (hang.c stops it with SM5SIM_TIMEOUT; the checker reports the wait)
RWByteAddressBuffer flag : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    [loop]
    while (flag.Load(0) == 0) {
    }
    flag.Store(4, 1);
}
