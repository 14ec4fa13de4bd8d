! Character variables: blank padding, trim, concatenation, comparison, substrings.
program strings
  implicit none
  character(len=10) :: name
  character(len=4) :: short
  character(len=20) :: joined
  name = 'accsim'
  short = 'toolong'
  joined = trim(name) // '-' // short
  print *, '[', name, ']', len(name), len_trim(name)
  print *, short
  print *, joined
  print *, name(1:3), name(4:)
  if (name == 'accsim') print *, 'equal with padding'
  if (short < name) print *, 'ordered'
  print *, trim(name) // '!'
end program strings
