//! `to_binary IN.aag|IN.aig OUT.aig`: rewrites an AIGER file as canonical binary AIGER 1.9
//! (for tools that read only binary files, such as ABC and rIC3).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(output)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: to_binary IN OUT.aig");
        std::process::exit(1);
    };
    let result = std::fs::read(input)
        .map_err(|e| format!("{input}: {e}"))
        .and_then(|bytes| hypermut_aig::read_aiger(&bytes, input).map_err(|e| e.to_string()))
        .and_then(|aig| {
            let bytes = hypermut_aig::write_aiger(&aig, hypermut_aig::AigerFormat::Binary);
            std::fs::write(output, bytes).map_err(|e| format!("{output}: {e}"))
        });
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
