! Issue 16 (session 10): bounds remapping in pointer assignment (Fortran 2003 §7.4.2,
! §7.4.2.1): `p(0:) => a` gives the pointer its own lower bounds over the target's extents;
! `m(1:3, 1:4) => v` views a contiguous target's elements in array element order with the
! given bounds (rank remapping). Forms: lower bounds of a whole array, of a contiguous
! section, of an allocatable and of another pointer; a rank-one array seen as a matrix and
! written through the pointer; `lbound`/`ubound`/`size` of the remapped pointer, its
! `associated` status, a remapped pointer's target in a compute construct.
program pointer_remapping
  implicit none
  real(8), target :: a(10), v(12)
  real(8), allocatable, target :: w(:)
  real(8), pointer :: p(:), q(:), m(:, :)
  integer :: i, j
  a = [(dble(i), i = 1, 10)]
  v = 0.0d0
  p(0:) => a
  print *, 'p(0:) => a', lbound(p), ubound(p), p(0), p(9)
  p(-2:) => a(4:8)
  print *, 'p(-2:) => a(4:8)', lbound(p, 1), ubound(p, 1), size(p), p(-2), p(2)
  q(100:) => p
  print *, 'q(100:) => p', lbound(q), ubound(q), q(100), q(104), associated(q)
  allocate(w(0:5))
  w = [(10.0d0 * i, i = 0, 5)]
  p(1:) => w
  print *, 'p(1:) => w', lbound(p), ubound(p), p(1), p(6)
  ! A rank-one target as a 3 x 4 matrix, written through the pointer.
  m(1:3, 1:4) => v
  do j = 1, 4
    do i = 1, 3
      m(i, j) = 10 * i + j
    end do
  end do
  print *, 'm(1:3, 1:4) => v', shape(m), lbound(m), ubound(m)
  print '(12f5.0)', v
  m(0:1, 0:2) => a(3:8)
  print *, 'm(0:1, 0:2) => a(3:8)', m(0, 0), m(1, 0), m(0, 2), m(1, 2), size(m)
  ! Through the remapped pointer on the device.
  m(1:3, 1:4) => v
  !$acc parallel loop collapse(2) copy(v)
  do j = 1, 4
    do i = 1, 3
      v(i + 3 * (j - 1)) = v(i + 3 * (j - 1)) + 100 * j
    end do
  end do
  print *, 'after region', m(1, 1), m(3, 4), sum(m)
  deallocate(w)
end program pointer_remapping
