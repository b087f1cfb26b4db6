cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 8, 1, 1
debug_break 
and r0.x, vThreadIDInGroupFlattened.x, l(1)
if_nz r0.x
  abort 
endif 
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), vThreadIDInGroupFlattened.x
ret 
