# Warnings for nsdyn's own targets: nsdyn_target_warnings(target)
function(nsdyn_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wno-unused-parameter
                         $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>)
  if(NSDYN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
