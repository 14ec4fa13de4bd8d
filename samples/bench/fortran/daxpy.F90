! y = a*x + y on long vectors with array syntax (issue 16): the vector update as Fortran
! programmers write it, whole-array assignments inside `!$acc kernels` in a data region, repeated
! REPS times with the scalar changing, then `sum` and `maxval` checks on the host.
! -DN=... sets the vector length, -DREPS=... the repetitions.
#ifndef N
#define N 4000000
#endif
#ifndef REPS
#define REPS 20
#endif
program daxpy_bench
  implicit none
  integer, parameter :: n = N, reps = REPS
  real(8), allocatable :: x(:), y(:)
  real(8) :: a
  integer :: i, r

  allocate(x(n), y(n))
  do i = 1, n
    x(i) = dble(mod(i, 17)) - 8.0d0
    y(i) = dble(mod(i, 5))
  end do
  !$acc data copyin(x) copy(y)
  do r = 1, reps
    a = 1.0d0 / dble(r + 1)
    !$acc kernels
    y(:) = a * x(:) + y(:)
    !$acc end kernels
  end do
  !$acc end data
  print '(a, i0, a, i0, a, es19.12, a, es19.12, a, es19.12)', 'daxpy n=', n, ' reps=', reps, &
    ' sum=', sum(y), ' max=', maxval(y), ' y(n)=', y(n)
  deallocate(x, y)
end program daxpy_bench
