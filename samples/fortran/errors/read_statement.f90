! Input from a unit other than standard input (files are not supported): accsim names the
! feature and the line.
! expect-stderr: not supported by accsim: Fortran: `read` from a unit other than `*` or 5
! expect-stderr: read_statement.f90:8
program read_statement
  implicit none
  integer :: n
  read(10, *) n
  print *, n
end program read_statement
