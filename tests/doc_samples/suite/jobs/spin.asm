cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(0)
loop
  iadd r0.x, r0.x, l(1)
endloop
store_structured u0.x, l(0), l(0), r0.x
ret
