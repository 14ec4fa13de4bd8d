! A `do` without its `end do`.
! expect-stderr: expected `end do` (for the `do` at line 6)
! expect-stderr: missing_end_do.f90:8
program missing_end_do
  integer :: i
  do i = 1, 3
    print *, i
end program missing_end_do
