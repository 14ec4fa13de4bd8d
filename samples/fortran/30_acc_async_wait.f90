! async queues and wait (§2.13, §2.14): two independent kernels on two queues, then a wait.
program async_wait
  implicit none
  integer, parameter :: n = 256
  real :: a(n), b(n)
  integer :: i
  a = 1.0
  b = 2.0
  !$acc data copy(a, b)
  !$acc parallel loop async(1)
  do i = 1, n
    a(i) = a(i) * 3.0
  end do
  !$acc parallel loop async(2)
  do i = 1, n
    b(i) = b(i) + real(i)
  end do
  !$acc wait(1, 2)
  !$acc parallel loop
  do i = 1, n
    a(i) = a(i) + b(i)
  end do
  !$acc end data
  print *, a(1), a(n)
end program async_wait
