// A shader that binds nothing: the texture-job tests bind textures and
// samplers to it with explicit views, to test job files without an executor.
[numthreads(1, 1, 1)]
void main() {}
