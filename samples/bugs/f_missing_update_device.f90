! The host changes an array inside a data region and the kernel reads it without an
! `update device` (OpenACC 2.0 §2.14.4): the device works on the old values.
program missing_update_device
  implicit none
  integer, parameter :: n = 64
  real :: a(n), b(n)
  integer :: i
  a = 1.0
  !$acc data copyin(a) copyout(b)
  a = 2.0
  !$acc parallel loop
  do i = 1, n
    b(i) = a(i) + 1.0 ! expect: stale-device-read
  end do
  !$acc end data
  print *, b(1)
end program missing_update_device
