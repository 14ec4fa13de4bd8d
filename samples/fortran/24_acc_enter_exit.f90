! Unstructured data lifetimes on an allocatable array: enter data / exit data (§2.6.6).
program enter_exit
  implicit none
  real, allocatable :: u(:)
  integer :: i, n
  n = 100
  allocate(u(n))
  u = 0.0
  !$acc enter data copyin(u)
  call fill(u, n)
  !$acc exit data copyout(u)
  print *, u(1), u(50), u(100)
contains
  subroutine fill(v, m)
    integer, intent(in) :: m
    real :: v(m)
    integer :: j
    !$acc parallel loop present(v)
    do j = 1, m
      v(j) = sqrt(real(j))
    end do
  end subroutine fill
end program enter_exit
