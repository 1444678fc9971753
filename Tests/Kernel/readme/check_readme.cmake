# Fails unless README contains SOURCE verbatim.
file(READ "${README}" readme)
file(READ "${SOURCE}" source)
string(FIND "${readme}" "${source}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README} does not contain ${SOURCE} verbatim: copy the file into the README's code block")
endif()
