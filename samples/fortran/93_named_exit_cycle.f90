! Issue 16 (session 10): `exit` and `cycle` naming an outer loop (Fortran 2003 §8.1.6.4.3:
! `cycle name` ends the current iteration of the named loop and of every loop inside it;
! §8.1.6.4.4: `exit name` ends them all). C has no jump out of an outer loop but `goto`, and a
! label keeps the whole procedure out of the native engine; accsim writes these jumps with a
! flag each loop in between tests after its inner loop. The forms: `exit` of the outer loop
! from two and three levels down, from inside `if` and `select case`; `cycle` of an outer
! `do`, `do while` and plain `do`; both jumps to one loop; a named loop inside another named
! loop that is left by its own and by the outer name; and the same search inside a
! `parallel loop`, each gang's iteration with its own flag.
module named_jumps
  implicit none
contains
  ! The first pair (i, j), i < j, whose values add to `target`: exit from two loops down.
  subroutine first_pair(x, n, target, pi, pj)
    integer, intent(in) :: n
    integer, intent(in) :: x(n), target
    integer, intent(out) :: pi, pj
    integer :: i, j
    pi = 0
    pj = 0
    pairs: do i = 1, n - 1
      do j = i + 1, n
        if (x(i) + x(j) == target) then
          pi = i
          pj = j
          exit pairs
        end if
      end do
    end do pairs
  end subroutine first_pair

  ! Sum of the rows of a that hold no negative element: a negative element cycles the row
  ! loop from inside the column loop and a `select case`.
  integer function skip_rows(a, m, n)
    integer, intent(in) :: m, n
    integer, intent(in) :: a(m, n)
    integer :: i, j, row_sum
    skip_rows = 0
    rows: do i = 1, m
      row_sum = 0
      do j = 1, n
        select case (a(i, j))
        case (:-1)
          cycle rows
        case (0)
          cycle
        case default
          row_sum = row_sum + a(i, j)
        end select
      end do
      skip_rows = skip_rows + row_sum
    end do rows
  end function skip_rows

  ! Counts steps of a three-level search until `limit` steps or a product above `stop_at`:
  ! `cycle` of a `do while`, `exit` of a plain `do` from three loops down.
  integer function count_until(limit, stop_at)
    integer, intent(in) :: limit, stop_at
    integer :: i, j, k, steps
    steps = 0
    i = 0
    outer: do
      i = i + 1
      j = 0
      middle: do while (j < 4)
        j = j + 1
        do k = 1, 5
          steps = steps + 1
          if (steps >= limit) exit outer
          if (i * j * k > stop_at) exit outer
          if (k == j) cycle middle
        end do
        steps = steps + 100
      end do middle
      if (i > 50) exit
    end do outer
    count_until = steps * 1000 + i * 10 + j
  end function count_until
end module named_jumps

program named_exit_cycle
  use named_jumps
  implicit none
  integer :: x(8), a(3, 4), pi, pj, i, j, hits, found(6)
  x = [4, 9, 1, 7, 12, 3, 8, 5]
  call first_pair(x, 8, 15, pi, pj)
  print *, 'pair 15:', pi, pj
  call first_pair(x, 8, 100, pi, pj)
  print *, 'pair 100:', pi, pj
  a(1, :) = [1, -4, 7, 10]
  a(2, :) = [2, 5, 0, 11]
  a(3, :) = [3, 6, 9, -12]
  print *, 'rows:', skip_rows(a, 3, 4)
  print *, 'count:', count_until(1000, 30), count_until(7, 1000), count_until(1000, 1000)
  ! Both jumps to one loop, and an inner named loop left by its own name and the outer one.
  hits = 0
  grid: do i = 1, 6
    line: do j = 1, 6
      if (mod(i + j, 5) == 0) cycle grid
      if (j > i) exit line
      if (i * j == 20) exit grid
      hits = hits + i * j
    end do line
    hits = hits + 1000
  end do grid
  print *, 'grid:', hits, i, j
  ! The search of each row inside a parallel loop: each iteration's flag is its own.
  !$acc parallel loop copyout(found)
  do i = 1, 6
    found(i) = 0
    search: do j = 1, 8
      do pi = 1, 3
        if (j * pi == i * 2) then
          found(i) = j * 10 + pi
          exit search
        end if
      end do
    end do search
  end do
  print *, 'found:', found
end program named_exit_cycle
