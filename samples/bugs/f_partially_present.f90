! Only the first half of the array was entered, but the loop's data clause asks for all of it
! (OpenACC 2.0 §2.6.4: a section partly present is an error).
program partially_present
  implicit none
  integer, parameter :: n = 100
  real :: a(n)
  integer :: i
  a = 0.0
  !$acc enter data copyin(a(1:n/2))
  !$acc parallel loop present_or_copy(a(1:n)) ! expect: partially-present
  do i = 1, n
    a(i) = i
  end do
  !$acc exit data delete(a(1:n/2))
  print *, a(n)
end program partially_present
