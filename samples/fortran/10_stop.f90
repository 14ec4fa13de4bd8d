! stop with an integer code: gfortran writes "STOP 3" to standard error and exits with 3.
! expect-exit: 3
program stop_code
  implicit none
  integer :: i
  do i = 1, 10
    if (i == 4) stop 3
    print *, i
  end do
end program stop_code
