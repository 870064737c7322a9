fn main() {
    println!("prunelab {}", prunelab::features::describe());
}
