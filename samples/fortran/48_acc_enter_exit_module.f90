! A module allocatable array with its device copy made by enter data in one subroutine, used by
! another with present, and released with exit data (§2.6.6).
module grid
  implicit none
  real(8), allocatable :: phi(:, :)
  integer :: nx, ny
contains
  subroutine setup(a, b)
    integer, intent(in) :: a, b
    nx = a
    ny = b
    allocate(phi(nx, ny))
    phi = 1.0d0
    !$acc enter data copyin(phi)
  end subroutine setup
  subroutine relax()
    integer :: i, j
    !$acc parallel loop collapse(2) present(phi)
    do j = 1, ny
      do i = 1, nx
        phi(i, j) = phi(i, j) + dble(i * j) / dble(nx * ny)
      end do
    end do
  end subroutine relax
  subroutine finish()
    !$acc exit data copyout(phi)
  end subroutine finish
end module grid

program enter_exit_module
  use grid
  implicit none
  call setup(12, 8)
  call relax()
  call relax()
  call finish()
  write(*, '(3F12.6)') phi(1, 1), phi(6, 4), phi(12, 8)
  deallocate(phi)
end program enter_exit_module
