! `copyin` where `copy` was meant: the device results are discarded at the end of the region
! (OpenACC 2.0 §2.6.5.2: `copyin` never copies back).
program stale_host_read_copyin
  implicit none
  real(8) :: v(50), s
  integer :: i
  v = 1.0d0
  !$acc parallel loop copyin(v)
  do i = 1, 50
    v(i) = v(i) + i
  end do
  s = 0.0d0
  do i = 1, 50
    s = s + v(i) ! expect: stale-host-read
  end do
  print '(a, f0.1)', 'sum = ', s
end program stale_host_read_copyin
