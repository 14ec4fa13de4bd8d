! error stop: gfortran writes "ERROR STOP 4" to standard error and exits with 4.
! expect-exit: 4
program error_stop
  implicit none
  real :: x
  x = -1.0
  print *, 'checking', x
  if (x < 0.0) error stop 4
  print *, 'not reached'
end program error_stop
