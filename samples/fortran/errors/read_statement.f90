! Input statements are not supported.
! expect-stderr: not supported by accsim: Fortran: the `read` statement
! expect-stderr: read_statement.f90:7
program read_statement
  implicit none
  integer :: n
  read *, n
  print *, n
end program read_statement
