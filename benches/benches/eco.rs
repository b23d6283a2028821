//! tabia-eco: loading the embedded table.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabia_eco::Table;

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("eco_load");
    group.sample_size(20);
    group.bench_function("embedded", |b| {
        b.iter_with_large_drop(|| black_box(Table::load_embedded()))
    });
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
