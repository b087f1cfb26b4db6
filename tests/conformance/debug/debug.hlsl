// The debug instructions abort and debug_break have no HLSL spelling that fxc
// emits for cs_5_0; debug.asm is written by hand in fxc's listing syntax.
// The reference notes define no effect for them; sm5sim's choice (README,
// "Semantics, in brief"): abort ends the threads that execute it and is
// reported; debug_break does nothing but is counted (no debugger attached).
RWStructuredBuffer<uint> output : register(u0);
[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex) { output[t] = t; }
