! A subroutine asserts `present(v)` but its caller never put `v` on the device
! (OpenACC 2.0 §2.6.5.6: a present clause on data that is not present is an error).
program not_present
  implicit none
  real :: v(50)
  v = 1.0
  call scale(v, 50)
  print *, v(1)
contains
  subroutine scale(a, n)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: i
    !$acc parallel loop present(a) ! expect: not-present
    do i = 1, n
      a(i) = a(i) * 2.0
    end do
  end subroutine scale
end program not_present
