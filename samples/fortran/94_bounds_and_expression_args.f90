! Issue 16 (session 10): `lbound`, `ubound` and `shape` without `dim` (Fortran 2003 §13.7.60,
! §13.7.108, §13.7.128: the bounds or extents of every dimension, a rank-one array), and array
! expressions as actual arguments (§12.4.1.2: an actual that is not a variable is passed as a
! temporary holding its value, which the procedure must not define). Forms: explicit-shape,
! allocatable with other lower bounds, assumed-shape dummies; assignment of the result,
! output, reductions and comparisons of it, `size(shape(a))` as the rank; expressions of
! arrays, sections, intrinsics and constructors passed to explicit-shape and assumed-shape
! dummies, in a subroutine call and a function reference, also inside a data region.
module shapes
  implicit none
contains
  subroutine describe(label, x)
    character(len=*), intent(in) :: label
    real(8), intent(in) :: x(:, :)
    print '(a, a, 2i4, a, 2i4, a, 2i4)', label, ': lbound', lbound(x), ' ubound', ubound(x), ' shape', shape(x)
  end subroutine describe

  real(8) function total(v, n)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    total = sum(v)
  end function total

  real(8) function weighted(v, w)
    real(8), intent(in) :: v(:), w(:)
    weighted = dot_product(v, w) / sum(w)
  end function weighted

  subroutine scale_into(src, dst, factor)
    real(8), intent(in) :: src(:)
    real(8), intent(out) :: dst(:)
    real(8), intent(in) :: factor
    dst = factor * src
  end subroutine scale_into
end module shapes

program bounds_and_expression_args
  use shapes
  implicit none
  real(8) :: a(3, 4), v(6), w(6), d(6)
  real(8), allocatable :: b(:, :)
  integer :: lb(2), ub(2), sh(2), i, j
  do j = 1, 4
    do i = 1, 3
      a(i, j) = i + 10 * j
    end do
  end do
  allocate(b(0:4, -2:1))
  b = 1.5d0
  lb = lbound(b)
  ub = ubound(b)
  sh = shape(b)
  print *, 'b bounds', lb, ub, sh, size(shape(b)), product(shape(b))
  print *, 'a shape', shape(a), lbound(a), ubound(a)
  print *, 'same shape', all(shape(a) == [3, 4]), any(lbound(b) /= 1)
  call describe('a', a)
  call describe('b', b)
  call describe('a section', a(2:3, 1:4:2))
  ! Array expressions as arguments.
  v = [(dble(i), i = 1, 6)]
  w = [1.0d0, 2.0d0, 3.0d0, 3.0d0, 2.0d0, 1.0d0]
  print *, 'total', total(2.0d0 * v + 1.0d0, 6), total(v(2:6:2) ** 2, 3), total(abs(v - 3.5d0), 6)
  print *, 'weighted', weighted(v * w, w + 1.0d0), weighted([1.0d0, 2.0d0, 3.0d0], sqrt(v(1:3)))
  call scale_into(v + w, d, 0.5d0)
  print '(6f6.2)', d
  call scale_into(v(6:1:-1) - 1.0d0, d, 2.0d0)
  print '(6f6.2)', d
  call describe('a + 1', a + 1.0d0)
  call describe('transpose', transpose(a))
  !$acc data copy(d) copyin(v, w)
  !$acc parallel loop
  do i = 1, 6
    d(i) = d(i) + v(i) * w(i)
  end do
  !$acc end data
  print *, 'after region', total(d - v, 6), maxval(d)
  deallocate(b)
end program bounds_and_expression_args
