! Issue 16 (session 10): allocatable and pointer dummy arguments (Fortran 2003 §12.4.1.2: an
! allocatable dummy's actual is an allocatable variable, whose allocation status and bounds the
! procedure may change; §12.4.1.3: a pointer dummy's actual is a pointer, whose association the
! procedure may change; §5.1.2.7: an `intent(out)` allocatable is deallocated at entry). accsim
! passes the variable's element pointer and bound variables by reference. Forms: a subroutine
! that allocates its `intent(out)` argument with bounds of its own, one that grows an
! `intent(inout)` array (reallocating with a copy), `allocated` of an `intent(in)` one, a rank-2
! array, an allocatable component as the actual, a pointer dummy associated inside the
! procedure and a scalar pointer dummy, an optional allocatable, and the result on the device.
module dummies
  implicit none
  type bag
    real(8), allocatable :: items(:)
  end type bag
contains
  subroutine make_range(a, lo, hi)
    integer, allocatable, intent(out) :: a(:)
    integer, intent(in) :: lo, hi
    integer :: i
    allocate(a(lo:hi))
    do i = lo, hi
      a(i) = i * i
    end do
  end subroutine make_range

  subroutine append(a, x)
    real(8), allocatable, intent(inout) :: a(:)
    real(8), intent(in) :: x
    real(8), allocatable :: grown(:)
    integer :: n
    if (.not. allocated(a)) then
      allocate(a(1))
      a(1) = x
      return
    end if
    n = size(a)
    allocate(grown(n + 1))
    grown(1:n) = a
    grown(n + 1) = x
    deallocate(a)
    allocate(a(n + 1))
    a = grown
  end subroutine append

  logical function has_data(a)
    real(8), allocatable, intent(in) :: a(:, :)
    has_data = allocated(a)
  end function has_data

  subroutine make_grid(g, n, m)
    real(8), allocatable, intent(out) :: g(:, :)
    integer, intent(in) :: n, m
    integer :: i, j
    allocate(g(0:n - 1, m))
    do j = 1, m
      do i = 0, n - 1
        g(i, j) = 10 * i + j
      end do
    end do
  end subroutine make_grid

  subroutine point_at_tail(p, t, k)
    real(8), pointer :: p(:)
    real(8), target, intent(in) :: t(:)
    integer, intent(in) :: k
    p => t(k:)
  end subroutine point_at_tail

  subroutine point_at_max(p, t)
    real(8), pointer :: p
    real(8), target, intent(in) :: t(:)
    p => t(maxloc(t, 1))
  end subroutine point_at_max

  subroutine maybe_fill(a, n)
    integer, allocatable, intent(inout), optional :: a(:)
    integer, intent(in) :: n
    if (present(a)) then
      if (allocated(a)) deallocate(a)
      allocate(a(n))
      a = n
    end if
  end subroutine maybe_fill
end module dummies

program allocatable_pointer_dummies
  use dummies
  implicit none
  integer, allocatable :: r(:)
  real(8), allocatable :: list(:), grid(:, :)
  real(8), allocatable, target :: data(:)
  real(8), pointer :: tail(:), top
  type(bag) :: b
  integer :: i
  call make_range(r, -2, 3)
  print *, 'range', lbound(r), ubound(r), r
  call make_range(r, 5, 7)
  print *, 'again', lbound(r), ubound(r), r
  do i = 1, 4
    call append(list, 1.5d0 * i)
  end do
  print *, 'list', size(list), list
  call append(b%items, 2.0d0)
  call append(b%items, 4.0d0)
  print *, 'bag', size(b%items), b%items
  print *, 'grid allocated', has_data(grid)
  call make_grid(grid, 3, 2)
  print *, 'grid', has_data(grid), lbound(grid), ubound(grid), grid
  allocate(data(6))
  data = [3.0d0, 1.0d0, 4.0d0, 1.0d0, 5.0d0, 9.0d0]
  call point_at_tail(tail, data, 4)
  call point_at_max(top, data)
  print *, 'tail', size(tail), tail, 'top', top
  call maybe_fill(r, 2)
  call maybe_fill(n=3)
  print *, 'filled', size(r), r
  !$acc parallel loop copy(list)
  do i = 1, size(list)
    list(i) = 2 * list(i)
  end do
  print *, 'doubled', list
  deallocate(r, list, grid, data)
end program allocatable_pointer_dummies
