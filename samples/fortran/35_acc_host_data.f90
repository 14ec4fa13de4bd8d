! A subroutine updating part of an array already on the device: present clause with a section,
! update of a middle section (§2.6.5.6, §2.14.4).
program partial_update
  implicit none
  integer, parameter :: n = 40
  integer :: v(n), i
  v = [(i, i = 1, n)]
  !$acc enter data copyin(v)
  call add_on_device(v, n, 10, 20)
  !$acc update host(v(10:20))
  print *, v(9:21)
  !$acc exit data delete(v)
contains
  subroutine add_on_device(a, m, lo, hi)
    integer, intent(in) :: m, lo, hi
    integer, intent(inout) :: a(m)
    integer :: k
    !$acc parallel loop present(a(lo:hi))
    do k = lo, hi
      a(k) = a(k) * 100
    end do
  end subroutine add_on_device
end program partial_update
