! Issue 16: allocatable components of derived types (Fortran 2003 §4.5.3): a new value of the
! type has them unallocated; `allocate`/`deallocate`/`allocated`/`size`/`lbound` take the
! component; elements, sections and whole-component expressions work as for an allocatable
! array; and the component's data in a data clause (`copyin(m%vals)`, OpenACC 2.0 §2.7: a member
! of a derived-type variable) is what device code reads through it.
module sparse_mod
  implicit none
  type csr_matrix
    integer :: nrows = 0
    integer, allocatable :: rowptr(:), cols(:)
    real(8), allocatable :: vals(:)
  end type csr_matrix
contains
  subroutine build_tridiagonal(m, n)
    type(csr_matrix), intent(inout) :: m
    integer, intent(in) :: n
    integer :: i, k
    m%nrows = n
    allocate(m%rowptr(n + 1), m%cols(3 * n - 2), m%vals(3 * n - 2))
    k = 1
    do i = 1, n
      m%rowptr(i) = k
      if (i > 1) then
        m%cols(k) = i - 1
        m%vals(k) = -1.0d0
        k = k + 1
      end if
      m%cols(k) = i
      m%vals(k) = 2.0d0 + i * 0.5d0
      k = k + 1
      if (i < n) then
        m%cols(k) = i + 1
        m%vals(k) = -1.0d0
        k = k + 1
      end if
    end do
    m%rowptr(n + 1) = k
  end subroutine build_tridiagonal
end module sparse_mod

program allocatable_components
  use sparse_mod
  implicit none
  type(csr_matrix) :: a
  real(8), allocatable :: x(:), y(:)
  integer :: i, k, n, nnz
  integer, allocatable :: rp(:), cl(:)
  real(8), allocatable :: vl(:)
  n = 10
  print '(l1, 1x, i0)', allocated(a%vals), a%nrows
  call build_tridiagonal(a, n)
  nnz = size(a%vals)
  print '(l1, 3(1x, i0))', allocated(a%vals), nnz, lbound(a%cols, 1), a%rowptr(n + 1)
  print '(6f6.2)', a%vals(1:6)
  print '(f8.3)', sum(a%vals)
  allocate(x(n), y(n))
  x = [(1.0d0 * i, i = 1, n)]
  ! The device copies the component data; the loop reads them through local names.
  allocate(rp(n + 1), cl(nnz), vl(nnz))
  rp = a%rowptr
  cl = a%cols
  vl = a%vals
  !$acc parallel loop copyin(rp, cl, vl, x) copyout(y)
  do i = 1, n
    y(i) = 0
    do k = rp(i), rp(i + 1) - 1
      y(i) = y(i) + vl(k) * x(cl(k))
    end do
  end do
  print '(5f8.2)', y
  ! The component's data itself in a data clause, updated on the device.
  !$acc data copy(a%vals)
  !$acc parallel loop present(a%vals)
  do k = 1, nnz
    a%vals(k) = 2 * a%vals(k)
  end do
  !$acc end data
  print '(f8.3)', sum(a%vals)
  a%vals(2:4) = -a%vals(2:4)
  print '(4f7.2)', a%vals(1:4)
  deallocate(a%vals)
  print '(l1, 1x, l1)', allocated(a%vals), allocated(a%cols)
  allocate(a%vals(0:2))
  a%vals = 7
  print '(i0, 1x, i0, 1x, f4.1)', lbound(a%vals, 1), ubound(a%vals, 1), a%vals(0)
end program allocatable_components
