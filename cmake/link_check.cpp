// The program of the link check (CMakeLists.txt, tsuru_link_<layer>): it calls nothing; the
// layer's whole library is linked in, so every symbol the layer uses must come from the layer or
// those below it.
int main() {
  return 0;
}
