! Character output: a variable with trailing blanks, substrings, concatenation in print and
! write with the A edit descriptor, and character comparison in a loop.
program char_output
  implicit none
  character(len=12) :: greeting
  character(len=5) :: who
  integer :: i
  greeting = 'Hello'
  who = 'world'
  print *, greeting // '|'
  print *, trim(greeting) // ', ' // who // '!'
  write(*, '(A, A)') trim(greeting), who(1:3)
  write(*, '(A12, "|")') greeting
  do i = 1, len_trim(greeting)
    if (greeting(i:i) == 'l') write(*, '(A, I2)') 'l at', i
  end do
end program char_output
