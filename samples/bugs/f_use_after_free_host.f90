! A pointer still used after the array it points to was deallocated through another pointer
! (Fortran 2003 §6.3.3.2: deallocating a pointer target leaves every other pointer associated
! with it undefined). The finding names the `allocate` statement of the block, in the module
! procedure that made it, not a line of accsim's Fortran runtime.
module grid
  implicit none
contains
  subroutine make(p, n)
    real, pointer, intent(out) :: p(:)
    integer, intent(in) :: n
    allocate(p(n))
    p = 1.5
  end subroutine make
end module grid

program use_after_free_host
  use grid
  implicit none
  real, pointer :: u(:), view(:)
  call make(u, 8)
  view => u
  deallocate(u)
  print *, view(3) ! expect: use-after-free
end program use_after_free_host
