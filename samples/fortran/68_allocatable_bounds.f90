! Issue 16 (speed): allocatable arrays whose every `allocate` gives the same constant bounds are
! addressed with those constants; the others keep their bound variables. This program mixes both:
! `grid` is always allocated as grid(0:n+1, -2:m), `work` twice with different shapes, `v` inside
! a loop with the same bounds each time, `cols` with a bound read at run time; `size`, `lbound`,
! `ubound` and elements at the edges must agree with gfortran (Fortran 2003 §6.3.1, §13.7).
module counts
  implicit none
contains
  integer function count_from(x)
    integer, intent(in) :: x
    count_from = 2 * x + 1
  end function count_from
end module counts

program allocatable_bounds
  use counts
  implicit none
  integer, parameter :: n = 6, m = 4
  real(8), allocatable :: grid(:, :), work(:), v(:)
  integer, allocatable :: cols(:)
  integer :: i, j, k, rep
  real(8) :: s

  allocate(grid(0:n + 1, -2:m))
  do j = -2, m
    do i = 0, n + 1
      grid(i, j) = dble(10 * i + j)
    end do
  end do
  print *, 'grid bounds', lbound(grid, 1), lbound(grid, 2), ubound(grid, 1), ubound(grid, 2), size(grid)
  print *, 'grid corners', grid(0, -2), grid(n + 1, m), grid(3, 0)

  allocate(work(n))
  work = 1.5d0
  print *, 'work', size(work), sum(work)
  deallocate(work)
  allocate(work(-3:3))
  do i = -3, 3
    work(i) = dble(i * i)
  end do
  print *, 'work again', lbound(work, 1), ubound(work, 1), work(-3), work(3), sum(work)

  s = 0.0d0
  do rep = 1, 3
    allocate(v(2:n))
    v = dble(rep)
    v(n) = v(n) + grid(rep, rep - 2)
    s = s + sum(v)
    deallocate(v)
  end do
  print *, 'loop sum', s

  k = count_from(n)
  allocate(cols(k))
  do i = 1, k
    cols(i) = i * i
  end do
  print *, 'cols', size(cols), cols(k), sum(cols)
  print *, 'allocated', allocated(grid), allocated(work), allocated(v), allocated(cols)
  deallocate(grid, work, cols)
end program allocatable_bounds
