! Issue 16 (session 13): `if` constructs whose conditions are constant expressions of named
! constants (Fortran 2003 §7.1.7) run only the block they select, as gfortran compiles only that
! block: the Jacobi's `if (mod(iters, 2) == 1)` inside its checksum loop. Chains where an earlier
! condition is not constant keep every test; conditions with `mod`, `.not.`, `.and.`, `.or.`,
! `.eqv.`, `/=` and comparisons; a dropped block with a compute construct and a loop `exit`.
program constant_if
  implicit none
  integer, parameter :: n = 8, iters = 7, mode = 2
  real(8) :: a(n), b(n), s
  integer :: i, k, hits
  do i = 1, n
    a(i) = dble(i)
    b(i) = dble(10 * i)
  end do
  s = 0.0d0
  do i = 1, n
    if (mod(iters, 2) == 1) then
      s = s + b(i)
    else
      s = s + a(i)
    end if
  end do
  print '(a, f8.2)', 'odd sweeps: ', s
  s = 0.0d0
  do i = 1, n
    if (mod(iters + 1, 2) == 1) then
      s = s + b(i)
    else
      s = s + a(i)
    end if
  end do
  print '(a, f8.2)', 'even sweeps: ', s
  if (mode == 1) then
    print *, 'mode one'
  else if (mode == 2 .and. .not. (n < 4)) then
    print *, 'mode two, n =', n
  else
    print *, 'another mode'
  end if
  if (mode /= 2 .or. n > 100) then
    !$acc parallel loop copy(a)
    do i = 1, n
      a(i) = -a(i)
    end do
  else if ((mode > 0) .eqv. (n > 0)) then
    !$acc parallel loop copy(b)
    do i = 1, n
      b(i) = b(i) + 1.0d0
    end do
  end if
  print '(8f6.1)', a
  print '(8f6.1)', b
  hits = 0
  do k = 1, 3
    if (mod(k, 2) == 0) then
      hits = hits + 100
    else if (mode == 2) then
      hits = hits + 1
    end if
  end do
  print '(a, i0)', 'hits ', hits
  do i = 1, n
    if (iters > 100) exit
    if (iters < 100) then
      hits = hits + i
      if (i == 5) exit
    end if
  end do
  print '(a, i0)', 'hits ', hits
  if (.false.) print *, 'never'
  if (mode == 2) print *, 'one-line if'
end program constant_if
