struct s;
struct s a[] = {{1}};
int main(void) { return 0; }
