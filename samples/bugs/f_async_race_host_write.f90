! The host overwrites the array an asynchronous copy to the device is still reading
! (OpenACC 2.0 §2.14.4: `async` returns before the transfer is done; `wait` orders it).
program async_race_host_write
  implicit none
  integer :: n, i
  real(8), allocatable :: x(:)
  n = 64
  allocate(x(n))
  do i = 1, n
    x(i) = i - 1
  end do
  !$acc enter data create(x)
  !$acc update device(x) async(3)
  do i = 1, n
    x(i) = -1.0d0 ! expect: async-race
  end do
  !$acc wait(3)
  !$acc exit data delete(x)
  print '(a, f0.1)', 'x(1) = ', x(1)
  deallocate(x)
end program async_race_host_write
