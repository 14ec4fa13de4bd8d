! Issue 16 (speed): `return` in the middle of a procedure (Fortran 2003 §12.4.5) returns in place
! after the procedure's end actions: scalar dummy arguments are copied back (accsim passes them
! copy-in/copy-out), local allocatable arrays are deallocated, a function returns its result
! variable. It used to jump to a label at the end, which kept the procedure out of the native
! engine. Also `return` in an `if` inside nested loops, and in a subroutine with an optional
! argument.
module early
  implicit none
contains
  ! Counts the values up to the first one above limit; total gets their sum.
  subroutine sum_until(x, n, limit, count, total)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n), limit
    integer, intent(out) :: count
    real(8), intent(inout) :: total
    real(8), allocatable :: seen(:)
    integer :: i
    allocate(seen(n))
    count = 0
    do i = 1, n
      if (x(i) > limit) return
      seen(i) = x(i)
      count = count + 1
      total = total + seen(i)
    end do
  end subroutine sum_until

  ! Position of value in the matrix, column-major order; -1 when absent.
  integer function locate(a, n, value) result(pos)
    integer, intent(in) :: n
    integer, intent(in) :: a(n, n)
    integer, intent(in) :: value
    integer :: i, j
    pos = -1
    do j = 1, n
      do i = 1, n
        if (a(i, j) == value) then
          pos = i + (j - 1) * n
          return
        end if
      end do
    end do
  end function locate

  subroutine scale(v, n, factor)
    integer, intent(in) :: n
    real(8), intent(inout) :: v(n)
    real(8), intent(in), optional :: factor
    if (.not. present(factor)) return
    v = v * factor
  end subroutine scale
end module early

program early_return
  use early
  implicit none
  real(8) :: x(8), total
  integer :: a(4, 4), count, i, j
  do i = 1, 8
    x(i) = dble(i) * 1.5d0
  end do
  total = 100.0d0
  call sum_until(x, 8, 7.0d0, count, total)
  print *, 'until 7:', count, total
  call sum_until(x, 8, 99.0d0, count, total)
  print *, 'until 99:', count, total
  do j = 1, 4
    do i = 1, 4
      a(i, j) = i * 10 + j
    end do
  end do
  print *, 'locate 32:', locate(a, 4, 32), ' locate 5:', locate(a, 4, 5)
  call scale(x, 8)
  print *, 'unscaled', x(8)
  call scale(x, 8, 2.0d0)
  print *, 'scaled', x(8)
  if (x(1) > 0.0d0) then
    print *, 'done early'
    return
  end if
  print *, 'not reached'
end program early_return
