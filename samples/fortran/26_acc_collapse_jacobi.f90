! A Jacobi iteration on a 2-D grid: collapse(2), gang/vector, a max reduction, and a data
! region around the iteration loop (column-major: the inner loop runs over the first index).
program jacobi
  implicit none
  integer, parameter :: n = 32, m = 24
  double precision :: a(n, m), anew(n, m), err
  integer :: i, j, iter
  a = 0.0d0
  a(1, :) = 1.0d0
  anew = a
  iter = 0
  err = 1.0d0
  !$acc data copy(a) create(anew)
  do while (err > 1.0d-3 .and. iter < 200)
    err = 0.0d0
    !$acc parallel loop collapse(2) gang vector reduction(max:err)
    do j = 2, m - 1
      do i = 2, n - 1
        anew(i, j) = 0.25d0 * (a(i+1, j) + a(i-1, j) + a(i, j-1) + a(i, j+1))
        err = max(err, abs(anew(i, j) - a(i, j)))
      end do
    end do
    !$acc parallel loop collapse(2)
    do j = 2, m - 1
      do i = 2, n - 1
        a(i, j) = anew(i, j)
      end do
    end do
    iter = iter + 1
  end do
  !$acc end data
  print *, 'iterations:', iter
  write(*, '(A, ES14.6)') 'error: ', err
  write(*, '(4F10.6)') a(2, 2), a(2, m / 2), a(n / 2, m / 2), a(n - 1, m - 1)
end program jacobi
