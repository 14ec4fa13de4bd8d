! Matrix-vector product and transpose by loops on column-major arrays; row and column sums
! with sum over sections.
program matrix_ops
  implicit none
  integer, parameter :: n = 4
  real :: a(n, n), at(n, n), x(n), y(n)
  integer :: i, j
  do j = 1, n
    do i = 1, n
      a(i, j) = real(i) - real(j) * 0.5
    end do
  end do
  x = [1.0, 2.0, 3.0, 4.0]
  y = 0.0
  do j = 1, n
    y = y + a(:, j) * x(j)
  end do
  do j = 1, n
    at(j, :) = a(:, j)
  end do
  print *, 'y =', y
  print *, 'row sums', (sum(a(i, :)), i = 1, n)
  print *, 'col sums', (sum(a(:, j)), j = 1, n)
  print *, 'transpose row 1', at(1, :)
end program matrix_ops
