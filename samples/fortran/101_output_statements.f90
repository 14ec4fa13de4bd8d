! Issue 16 (session 13): output statements of scalar items, each written by one call of a
! runtime helper (fortran/src/emit/print_helpers.rs). Formatted (Fortran 2003 §10, I F E ES A L
! X edits, reversion) and list-directed (§10.9.2) `print`/`write`; constant and variable items of
! every intrinsic kind; character variables, substrings and dummies of assumed length; items
! whose functions have side effects, which are evaluated in the list's order (§9.5.3: an item's
! value is that of the list at that point); the same statement form twice (one helper);
! `advance='no'`; output in a procedure and in a loop long enough for the helper to be compiled.
module counters
  implicit none
  integer :: calls = 0
contains
  integer function next_call()
    calls = calls + 1
    next_call = 100 + 7 * calls
  end function next_call
end module counters

program output_statements
  use counters
  implicit none
  integer, parameter :: n = 12
  integer(1) :: tiny
  integer(2) :: small
  integer(8) :: big
  real(4) :: x4
  real(8) :: x8
  logical :: flag
  character(len=9) :: word
  character(len=20) :: grown
  integer :: i, total
  real(8) :: v(3)

  tiny = -7
  small = 1234
  big = 9000000000_8
  x4 = 1.5
  x8 = -2.25d-3
  flag = .true.
  word = 'stencil'
  v = [1.0d0, 2.0d0, 3.0d0]

  print '(a, i0, a, i4, a, i12)', 'tiny=', tiny, ' small=', small, ' big=', big
  print '(a, f8.3, 1x, es12.4, 1x, l2)', 'x=', x4, x8, flag
  print '(a, f8.3, 1x, es12.4, 1x, l2)', 'y=', x4 * 2, x8 / 3, .not. flag
  print *, 'list', tiny, small, big, x4, x8, flag
  print *, n, 'constants only', 2.5d0, .false.
  print *
  print '(a)', word
  print '(3a)', '[', word(2:4), ']'
  print '(a, a, a)', '[', trim(word), ']'
  print *, word, len_trim(word)
  print '(i0, 1x, i0, 1x, i0)', next_call(), next_call(), next_call()
  print *, next_call(), calls, next_call()
  print '(2(i0, 1x), f6.2)', calls, n, v(2)
  print '(3(f5.1))', v(1), v(3), v(2)
  print '(a, i0)', 'after: ', calls
  write (*, '(a)', advance='no') 'no advance: '
  write (*, '(i0, 1x, l1)') n, flag
  write (*, *) 'write list', n, x8
  call report('named', 3)
  call report('longer name here', 42)
  grown = 'assumed ' // 'length'
  call report(trim(grown), -1)
  total = 0
  do i = 1, 80
    total = total + i
    if (mod(i, 20) == 0) print '(a, i3, a, i5, a, es10.3)', 'i=', i, ' total=', total, ' x=', x8 * i
  end do
  ! 90 calls of one helper: past the runtime's first 64 interpreted calls, native code.
  do i = 1, 90
    total = total - i
    write (*, '(i0, a)', advance='no') total, ' '
    if (mod(i, 15) == 0) print '(a)', '|'
  end do
  print '(a, i0)', 'total ', total
contains
  subroutine report(label, k)
    character(len=*), intent(in) :: label
    integer, intent(in) :: k
    print '(a, a, a, i0)', 'report ', label, ': ', k
    print *, 'report', len(label), k * 2
  end subroutine report
end program output_statements
