! OpenACC in Fortran: a parallel loop adding two vectors (OpenACC 2.0 §2.6.1, §2.9).
program vector_add
  implicit none
  integer, parameter :: n = 1000
  real :: a(n), b(n), c(n)
  integer :: i
  do i = 1, n
    a(i) = i
    b(i) = 2 * i
  end do
  !$acc parallel loop copyin(a, b) copyout(c)
  do i = 1, n
    c(i) = a(i) + b(i)
  end do
  !$acc end parallel loop
  print *, c(1), c(n / 2), c(n)
  print *, 'sum =', sum(c)
end program vector_add
