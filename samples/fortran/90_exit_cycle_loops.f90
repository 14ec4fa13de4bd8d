! Issue 16 (speed): `exit` and `cycle` in every kind of `do` loop, as search and filter loops
! use them (Fortran 2003 §8.1.6.4.3-4: `cycle` ends the current iteration, the loop's increment
! and trip count still apply; `exit` ends the loop). accsim writes `exit`/`cycle` of the
! innermost loop as C `break`/`continue` and writes no label that nothing jumps to: a label or
! `goto` kept the whole procedure (here: the main program and `first_negative`) out of the
! native engine. A named `exit` of an outer loop (`find_above`) is written with a flag since
! session 10 (93_named_exit_cycle.f90); `return` returns in place (92_early_return.f90).
module searches
  implicit none
contains
  ! The index of the first negative element, 0 when there is none.
  integer function first_negative(x, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer :: i
    first_negative = 0
    do i = 1, n
      if (x(i) < 0.0d0) then
        first_negative = i
        exit
      end if
    end do
  end function first_negative

  ! Sum of the elements with an odd index, skipping zeros, walking down with a run-time step.
  real(8) function odd_sum(x, n, step)
    integer, intent(in) :: n, step
    real(8), intent(in) :: x(n)
    integer :: i
    odd_sum = 0.0d0
    do i = n, 1, step
      if (mod(i, 2) == 0) cycle
      if (x(i) == 0.0d0) cycle
      odd_sum = odd_sum + x(i)
    end do
  end function odd_sum

  ! The row and column of the first element above `limit` (named exit from the inner loop).
  subroutine find_above(a, n, limit, row, col)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n, n), limit
    integer, intent(out) :: row, col
    integer :: i, j
    row = 0
    col = 0
    outer: do j = 1, n
      do i = 1, n
        if (a(i, j) > limit) then
          row = i
          col = j
          exit outer
        end if
      end do
    end do outer
  end subroutine find_above

  ! Early return from inside a loop.
  logical function all_positive(x, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer :: i
    all_positive = .false.
    do i = 1, n
      if (x(i) <= 0.0d0) return
    end do
    all_positive = .true.
  end function all_positive
end module searches

program exit_cycle_loops
  use searches
  implicit none
  integer, parameter :: n = 12
  real(8) :: x(n), y(n), a(n, n)
  integer :: i, j, k, row, col, count, steps
  do i = 1, n
    x(i) = dble(mod(7 * i, 11) - 3)
  end do
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(i * j)
    end do
  end do
  print *, 'first negative at', first_negative(x, n)
  print *, 'odd sum', odd_sum(x, n, -1), odd_sum(x, n, -3)
  call find_above(a, n, 50.0d0, row, col)
  print *, 'first above 50 at', row, col
  y = abs(x) + 1.0d0
  print *, 'all positive', all_positive(x, n), all_positive(y, n)
  ! cycle in a loop with a step: the increment still runs.
  count = 0
  do i = 1, 30, 4
    if (mod(i, 3) == 0) cycle
    count = count + i
  end do
  print *, 'stepped count', count, 'final i', i
  ! exit and cycle in do while and in a do without control.
  k = 0
  steps = 0
  do while (k < 100)
    k = k + 7
    steps = steps + 1
    if (mod(k, 5) == 0) cycle
    if (k > 60) exit
  end do
  print *, 'do while stopped at', k, 'after', steps
  k = 1
  do
    k = k * 3
    if (k > 1000) exit
    if (mod(k, 2) == 0) cycle
  end do
  print *, 'power of three above 1000:', k
  ! cycle of the inner loop of a nest, then exit of the inner loop only.
  count = 0
  do j = 1, n
    do i = 1, n
      if (i == j) cycle
      if (i > j + 2) exit
      count = count + 1
    end do
  end do
  print *, 'pairs near the diagonal', count
end program exit_cycle_loops
