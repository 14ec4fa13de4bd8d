! `create` allocates the device copy without the host values (OpenACC 2.0 §2.6.5.5); the
! kernel reads it.
program uninit_device_read_create
  implicit none
  real :: a(32), b(32)
  integer :: i
  a = [(real(i - 1), i = 1, 32)]
  !$acc data create(a) copyout(b)
  !$acc parallel loop
  do i = 1, 32
    b(i) = a(i) + 1.0 ! expect: uninit-device-read
  end do
  !$acc end data
  print '(a, f0.1)', 'b(5) = ', b(5)
end program uninit_device_read_create
