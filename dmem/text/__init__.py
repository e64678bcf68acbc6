"""Text helpers both decision engines and the evidence layer use: words, stems, names, question shapes."""
