! gang, worker and vector loops on a 3-D nest with num_gangs, num_workers and vector_length
! (§2.7.2-§2.7.4).
program gang_worker_vector
  implicit none
  integer, parameter :: nx = 8, ny = 6, nz = 16
  real :: t(nz, ny, nx)
  integer :: i, j, k
  !$acc parallel num_gangs(4) num_workers(2) vector_length(8) copyout(t)
  !$acc loop gang
  do i = 1, nx
    !$acc loop worker
    do j = 1, ny
      !$acc loop vector
      do k = 1, nz
        t(k, j, i) = i * 100 + j * 10 + k * 0.5
      end do
    end do
  end do
  !$acc end parallel
  print *, t(1, 1, 1), t(nz, ny, nx), sum(t)
end program gang_worker_vector
