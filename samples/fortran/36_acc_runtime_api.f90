! The OpenACC runtime API from Fortran (`use openacc`, §3): acc_copyin / acc_copyout on arrays,
! acc_is_present, acc_on_device (gfortran -fopenacc runs it on the host with the same output).
program runtime_api
  use openacc
  implicit none
  integer, parameter :: n = 100
  real(8) :: a(n)
  integer :: i
  a = 1.0d0
  call acc_copyin(a)
  !$acc parallel loop present(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
  call acc_copyout(a)
  print *, 'on the host:', acc_on_device(acc_device_host)
  print *, a(1), a(n)
end program runtime_api
