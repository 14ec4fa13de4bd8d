! A name with no type under `implicit none` is a program error at its line.
! expect-stderr: error[fortran]: `total` has no type (`implicit none` is in effect)
! expect-stderr: undeclared.f90:8
program undeclared
  implicit none
  integer :: i
  do i = 1, 3
    total = i
  end do
end program undeclared
