! Issue 12 (session 7, item 1): a variable of the gang's code written by the lanes of a vector
! loop. `last` is private to each gang (the `private(last)` of the gang loop, OpenACC 2.0
! §2.7.10), so the gang's vector lanes share it: every lane that finds a zero writes it, with no
! synchronisation between lanes before the end of the vector loop (§1.2), and the gang then
! stores whichever write came last. A `reduction(max:last)` on the vector loop is the fix.
program race_gang_scalar
  implicit none
  integer :: a(64, 32), found(32), i, j, last
  do i = 1, 32
    do j = 1, 64
      a(j, i) = mod(i + j, 7)
    end do
  end do
  !$acc parallel loop gang private(last) copyin(a) copyout(found)
  do i = 1, 32
    last = 0
    !$acc loop vector
    do j = 1, 64
      if (a(j, i) == 0) last = j
    end do
    found(i) = last ! expect: data-race
  end do
  print *, 'sum of last zeros =', sum(found)
end program race_gang_scalar
