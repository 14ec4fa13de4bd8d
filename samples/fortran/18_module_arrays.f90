! Module allocatable arrays shared by module procedures, with automatic arrays in a procedure.
module field
  implicit none
  real, allocatable :: u(:), work(:)
  integer :: npts
contains
  subroutine init(n)
    integer, intent(in) :: n
    integer :: i
    npts = n
    allocate(u(n), work(n))
    do i = 1, n
      u(i) = real(i * i)
    end do
  end subroutine init
  subroutine smooth()
    real :: tmp(npts)
    integer :: i
    tmp = u
    do i = 2, npts - 1
      u(i) = (tmp(i - 1) + tmp(i) + tmp(i + 1)) / 3.0
    end do
  end subroutine smooth
end module field

program module_arrays
  use field
  implicit none
  call init(7)
  call smooth()
  print *, u
  print *, size(u), allocated(work)
end program module_arrays
