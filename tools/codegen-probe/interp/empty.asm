cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_input vThreadID.x
dcl_temps 6
dcl_thread_group 64, 1, 1
utof r0.x, vThreadID.x
mul r0.xy, r0.xxxx, l(0.001000, 0.002000, 0.000000, 0.000000)
mov r0.zw, l(0,0,1.000000,0.999000)
mov r1.xy, vThreadID.xxxx
mov r5.x, l(0)
loop 
  uge r5.y, r5.x, l(2000)
  breakc_nz r5.y
  iadd r5.x, r5.x, l(1)
endloop 
xor r0.x, r0.x, r1.y
store_structured u0.x, vThreadID.x, l(0), r0.x
ret 
