! Laplace equation, Jacobi iteration: the OpenACC lab as it is taught in Fortran (issue 16),
! the twin of ../styles/laplace.c. Allocatable grids with a zero lower bound (`a(0:n-1, 0:m-1)`),
! the update loop nest with `reduction(max:error)` and `max(error, abs(...))`, the copy back as
! whole-array section assignment inside `!$acc kernels`, all in one data region; the loop ends on
! the tolerance or the iteration limit. -DN=... sets the grid side, -DITER_MAX=... the iterations.
#ifndef N
#define N 1024
#endif
#ifndef ITER_MAX
#define ITER_MAX 24
#endif
program laplace
  implicit none
  integer, parameter :: n = N, m = N, iter_max = ITER_MAX
  real(8), parameter :: tol = 1.0d-6
  real(8), allocatable :: a(:, :), anew(:, :)
  real(8) :: error, total
  integer :: i, j, iter

  allocate(a(0:n - 1, 0:m - 1), anew(0:n - 1, 0:m - 1))
  a = 0.0d0
  anew = 0.0d0
  ! The top row is held at 1.
  a(0:n - 1, 0) = 1.0d0
  anew(0:n - 1, 0) = 1.0d0

  error = 1.0d0
  iter = 0
  !$acc data copy(a) create(anew)
  do while (error > tol .and. iter < iter_max)
    error = 0.0d0
    !$acc parallel loop reduction(max:error)
    do j = 1, m - 2
      !$acc loop reduction(max:error)
      do i = 1, n - 2
        anew(i, j) = 0.25d0 * (a(i + 1, j) + a(i - 1, j) + a(i, j - 1) + a(i, j + 1))
        error = max(error, abs(anew(i, j) - a(i, j)))
      end do
    end do
    !$acc kernels
    a(1:n - 2, 1:m - 2) = anew(1:n - 2, 1:m - 2)
    !$acc end kernels
    iter = iter + 1
  end do
  !$acc end data

  total = sum(a)
  print '(a, i0, a, i0, a, i0, a, es19.12, a, es19.12)', 'laplace ', n, 'x', m, ' iterations=', iter, &
    ' error=', error, ' sum=', total
  deallocate(a, anew)
end program laplace
