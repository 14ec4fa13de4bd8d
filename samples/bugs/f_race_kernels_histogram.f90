! `independent` promises the iterations do not conflict (OpenACC 2.0 §2.7.9), but several
! update the same bin.
program race_kernels_histogram
  implicit none
  integer :: key(100), hist(4), i
  key = [(mod((i - 1) * 7, 4) + 1, i = 1, 100)]
  hist = 0
  !$acc kernels copyin(key) copy(hist)
  !$acc loop independent gang vector
  do i = 1, 100
    hist(key(i)) = hist(key(i)) + 1 ! expect: data-race
  end do
  !$acc end kernels
  print '(4(i0, 1x))', hist
end program race_kernels_histogram
