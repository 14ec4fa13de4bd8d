! The host prints an array the device changed inside a data region without `update host`
! (OpenACC 2.0 §2.14.4): it reads the stale host copy.
program missing_update_host
  implicit none
  integer, parameter :: n = 100
  real :: a(n)
  integer :: i
  a = 0.0
  !$acc data copy(a)
  !$acc parallel loop
  do i = 1, n
    a(i) = i
  end do
  print *, a(10) ! expect: stale-host-read
  !$acc end data
end program missing_update_host
