! Issue 16: pointers (Fortran 2003 §5.1.2.11, §7.4.2). Scalar pointers to targets, pointer
! assignment between pointers, `allocate` of a pointer, `associated` with and without a target,
! `nullify` and `=> null()`; array pointers with their own bounds: to a whole array (its bounds
! kept), to a contiguous section (lower bounds 1), swapped to double-buffer a stencil; and array
! pointers in OpenACC data clauses (the target's data, OpenACC 2.0 §2.7: "including Fortran array
! pointers") and compute constructs.
program pointers
  implicit none
  integer, parameter :: n = 16
  real(8), target :: a(n), b(n), grid(0:n + 1)
  real(8), pointer :: cur(:) => null(), nxt(:) => null(), tmp(:), inner(:)
  real(8), target :: x, y
  real(8), pointer :: px, py
  integer, pointer :: counter
  real(8), target :: m(4, 3)
  real(8), pointer :: col(:), whole(:, :)
  integer :: i, step

  x = 1.5d0
  y = -2.0d0
  nullify(px)
  print '(l1)', associated(px)
  px => x
  py => px
  py = py * 4
  print '(f6.2, 1x, l1, 1x, l1, 1x, l1)', x, associated(px), associated(py, x), associated(py, y)
  px => y
  print '(f6.2, 1x, f6.2)', px, py
  allocate(counter)
  counter = 0
  do i = 1, 5
    counter = counter + i
  end do
  print '(i0)', counter
  deallocate(counter)

  ! Array pointers: bounds from the target.
  grid = 0
  grid(n / 2) = 1
  cur => grid
  print '(i0, 1x, i0, 1x, i0)', lbound(cur, 1), ubound(cur, 1), size(cur)
  inner => grid(1:n)
  print '(i0, 1x, i0, 1x, f4.1)', lbound(inner, 1), ubound(inner, 1), inner(n / 2)
  do i = 1, 12
    m(mod(i - 1, 4) + 1, (i - 1) / 4 + 1) = i
  end do
  col => m(:, 2)
  whole => m
  print '(4f5.1, 1x, i0, 1x, i0)', col, size(whole, 1), size(whole, 2)
  col(1) = -1
  print '(f5.1)', m(1, 2)

  ! Double buffering with two pointers swapped each step; the data region holds both targets.
  a = 0
  b = 0
  a(n / 2) = 16
  cur => a
  nxt => b
  !$acc data copy(a, b)
  do step = 1, 6
    !$acc parallel loop present(cur, nxt)
    do i = 2, n - 1
      nxt(i) = 0.25d0 * cur(i - 1) + 0.5d0 * cur(i) + 0.25d0 * cur(i + 1)
    end do
    tmp => cur
    cur => nxt
    nxt => tmp
  end do
  !$acc end data
  print '(8f8.4)', cur
  print '(l1, 1x, l1)', associated(cur, a), associated(cur, b)

  ! A pointer's target in a data clause by the pointer's name, and a pointer-allocated array.
  allocate(tmp(n))
  tmp = [(1.0d0 * i, i = 1, n)]
  !$acc parallel loop copy(tmp)
  do i = 1, n
    tmp(i) = tmp(i) ** 2
  end do
  print '(f8.1)', sum(tmp)
  deallocate(tmp)
  nullify(cur, nxt)
  print '(l1, 1x, l1)', associated(cur), associated(nxt)
end program pointers
