! `!$acc routine seq` on a module function called from a parallel loop, and an atomic update
! building a histogram (§2.12, §2.13).
module helpers
  implicit none
contains
  integer function bucket(v)
    !$acc routine seq
    real, intent(in) :: v
    bucket = min(int(v * 10.0), 9) + 1
  end function bucket
end module helpers

program routine_atomic
  use helpers
  implicit none
  integer, parameter :: n = 1000
  real :: x(n)
  integer :: hist(10), i, b
  do i = 1, n
    x(i) = mod(i * 7919, 1000) / 1000.0
  end do
  hist = 0
  !$acc parallel loop copyin(x) copy(hist) private(b)
  do i = 1, n
    b = bucket(x(i))
    !$acc atomic update
    hist(b) = hist(b) + 1
  end do
  print *, hist
  print *, 'total', sum(hist)
end program routine_atomic
