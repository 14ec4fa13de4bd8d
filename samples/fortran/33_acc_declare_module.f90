! A module array made resident with `!$acc declare create` and a subroutine working on it
! with `present`, then `update self` to see it on the host (§2.13.1, §2.14.4).
module state
  implicit none
  integer, parameter :: n = 50
  real :: q(n)
  !$acc declare create(q)
contains
  subroutine step(f)
    real, intent(in) :: f
    integer :: i
    !$acc parallel loop present(q)
    do i = 1, n
      q(i) = q(i) * f + i
    end do
  end subroutine step
end module state

program declare_module
  use state
  implicit none
  q = 1.0
  !$acc update device(q)
  call step(2.0)
  call step(0.5)
  !$acc update self(q)
  print *, q(1), q(n)
end program declare_module
