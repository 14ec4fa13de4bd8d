! Arrays: column-major storage, lower bounds other than 1, sections, whole-array expressions,
! allocatable arrays and the array intrinsics.
program arrays
  implicit none
  integer, parameter :: m = 3, n = 4
  real :: a(m, n), b(0:m-1, n)
  integer :: v(-2:2), i, j
  real, allocatable :: w(:), grid(:,:)
  do j = 1, n
    do i = 1, m
      a(i, j) = 10 * i + j
    end do
  end do
  b = 2.0 * a + 1.0
  print *, 'a =', a
  print *, 'row 2 =', a(2, :)
  print *, 'column 3 =', b(:, 3)
  v = [(i * i, i = -2, 2)]
  print *, 'v =', v, 'lbound', lbound(v, 1), 'ubound', ubound(v, 1)
  print *, 'sum', sum(a), 'max', maxval(a), 'min', minval(b), 'product', product(v(1:2))
  print *, 'count > 20:', count(a > 20.0), 'size', size(a), size(a, 2)
  allocate(w(6))
  w = 1.5
  w(2:5) = w(1:4) + w(3:6)
  print *, 'w =', w, allocated(w)
  print *, 'dot =', dot_product(w, w)
  deallocate(w)
  print *, 'after deallocate:', allocated(w)
  allocate(grid(0:2, 1:2))
  grid = 0.0
  grid(1, :) = [5.0, 6.0]
  print *, 'grid =', grid, shape_total(grid)
contains
  integer function shape_total(g)
    real, intent(in) :: g(:,:)
    shape_total = size(g, 1) * 100 + size(g, 2)
  end function shape_total
end program arrays
